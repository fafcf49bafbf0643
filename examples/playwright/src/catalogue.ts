export interface Product {
  slug: string;
  name: string;
  /** Price in cents. */
  price: number;
}

export const CATALOGUE: readonly Product[] = [
  { slug: 'mug', name: 'Enamel mug', price: 1200 },
  { slug: 'tote', name: 'Canvas tote', price: 1800 },
  { slug: 'poster', name: 'Risograph poster', price: 2500 },
];

export function findProduct(slug: string): Product | undefined {
  return CATALOGUE.find((product) => product.slug === slug);
}

/** The total of `quantity` items at `price` cents, less `discountPercent`, rounded to the cent. */
export function lineTotal(price: number, quantity: number, discountPercent = 0): number {
  return Math.round(price * quantity * (1 - discountPercent / 100));
}
