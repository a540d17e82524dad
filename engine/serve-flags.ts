// The first thing the server's entry does, before Node loads any module of its own for it
// (engine/core/heap-flags.ts says why): imported first, so it runs before the entry's other imports.
import { keepCollectionsOnTheirThreads } from './core/heap-flags.js';

keepCollectionsOnTheirThreads();
