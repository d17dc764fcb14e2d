// Imported first by every entry point (serve, cli, test, bench): refuse an older Node.js before anything else
// loads. `npm install` brings the pinned Node.js 24 into node_modules/.bin, and every `npm run` script uses it.
const REQUIRED_MAJOR = 24;

const runningMajor = Number(process.versions.node.split(".")[0]);
// ALLOW_UNSUPPORTED_NODE is set only by `npm run bench -- --node <binary>`, to measure the runtimes side by side.
if (runningMajor < REQUIRED_MAJOR && process.env.ALLOW_UNSUPPORTED_NODE !== "1") {
  console.error(
    `This platform runs on Node.js ${REQUIRED_MAJOR} LTS, not ${process.version} (no longer supported): start it through npm (npm run dev, npm test, npm run cli), which uses the Node.js ${REQUIRED_MAJOR} that npm install puts in node_modules/.bin, or install the version in .nvmrc.`,
  );
  process.exit(1);
}
