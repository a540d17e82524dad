import type { FastifyReply, FastifyRequest } from 'fastify';

// The browser routes (company sign-in, a cloud drive's return) end by sending the browser to a page
// of this same server: never to a place a request named.

/** This server's own address as the browser reached it (the Host header was checked against the allow-list). */
export const origin = (req: FastifyRequest) => `${req.protocol}://${req.headers.host}`;

/** The page's own address with a fragment. */
export const toPage = (reply: FastifyReply, req: FastifyRequest, fragment: string) =>
  reply
    .code(302)
    .header('cache-control', 'no-store')
    .header('location', `${origin(req)}/${fragment}`)
    .send();
