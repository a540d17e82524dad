// The generated fuzz over every operation of the catalogue, through the bridge door.
import { fuzzSuite } from './fuzz.js';

fuzzSuite('bridge');
