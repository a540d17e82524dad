/**
 * RFC 8252: the desktop's sign-ins redirect to a loopback IP literal of its own, on a port the
 * system gave (company sign-in, and connecting a cloud drive).
 */
export const LOOPBACK_CALLBACK = /^http:\/\/127\.0\.0\.1:\d{1,5}\/callback(\?.*)?$/;
