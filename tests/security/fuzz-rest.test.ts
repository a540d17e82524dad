// The generated fuzz over every operation of the catalogue, through the rest door.
import { fuzzSuite } from './fuzz.js';

fuzzSuite('rest');
