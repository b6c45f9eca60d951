// Cucumber loads step definitions as ESM; tsx compiles TypeScript on the fly (no type check: `tsc --noEmit` does that).
import { register } from 'tsx/esm/api';

register();
