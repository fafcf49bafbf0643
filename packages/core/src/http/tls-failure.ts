/**
 * What a failed TLS handshake means and what fixes it, by the code Node gives it; undefined
 * for a code that is not a TLS failure. These failures are permanent: retrying does not help.
 */
export function describeTlsFailure(code: string): string | undefined {
  if (UNTRUSTED.has(code)) {
    return `the service's certificate is not trusted (${code}). If it comes from a private CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem, or the ca option (TESTRUN_CA_CERT).`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `the service's certificate is outside its validity dates (${code}): the service must renew it, or this machine's clock is wrong.`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `the service's certificate is not for this host name (${code}): check TESTRUN_BASE_URL against the names the certificate lists.`;
  }
  if (CLIENT_CERTIFICATE_REFUSED.has(code)) {
    return `the service refused the TLS handshake over the client certificate (${code}): set clientCert and clientKey (TESTRUN_CLIENT_CERT, TESTRUN_CLIENT_KEY) to a certificate it accepts.`;
  }
  if (PROTOCOL.has(code)) {
    return `no TLS connection could be agreed with the service (${code}): it may not speak HTTPS on that port, or only an old TLS version. Check TESTRUN_BASE_URL.`;
  }
  return undefined;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
]);

const CLIENT_CERTIFICATE_REFUSED = new Set([
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);

const PROTOCOL = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_VERSION_TOO_LOW',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
]);
