// The tests' production build (.next-test), made once for every suite that serves the app: `npm test`
// runs this before the test runners, beside the lint; vitest's HTTP tests, the cluster tests and the
// browser tests then find it current. Run alone, it builds only when a source file is newer.
import { ensureTestBuild } from './support/http-server';

const startedAt = Date.now();
console.log('building the app into .next-test unless that build is newer than every source file (a build takes 1-3 minutes)');
const built = await ensureTestBuild();
console.log(built ? `built in ${((Date.now() - startedAt) / 1000).toFixed(0)} s` : 'the build was current');
