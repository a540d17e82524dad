/** How a token shows what it is: a session's or an API key's (a JWT bearer has its own shape). */
export const SESSION_PREFIX = 'bss_';
export const API_KEY_PREFIX = 'bsk_';
