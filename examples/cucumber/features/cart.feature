Feature: Cart

  Scenario: merges line items of the same product
    Given an empty cart
    When I add 2 of "mug" at 1250 cents
    And I add 1 of "mug" at 1250 cents
    Then the cart holds 3 items
    And the subtotal is 3750 cents

  Scenario: refuses a quantity that is not a positive whole number
    Given an empty cart
    Then adding 0 of "mug" is refused

  Rule: discounts

    Scenario Outline: takes <percent> % off
      Given an empty cart
      When I add 1 of "lamp" at <price> cents
      And a discount of <percent> % applies
      Then the total is <total> cents

      Examples:
        | price | percent | total |
        | 1000  | 0       | 1000  |
        | 1000  | 15      | 850   |
        | 999   | 50      | 500   |
