// Every entry point (npm start, npm run worker, migrations, benchmarks) runs on Node 24 LTS or newer: the
// npm `node` dev dependency puts that binary first on the PATH of every npm script. Started any other way
// on an older Node, say so and stop instead of failing later in a stranger place.
export const MINIMUM_NODE_MAJOR = 24;

export function nodeMajor(version = process.versions.node): number {
  return Number(version.split(".")[0]);
}

export function requireSupportedNode(version = process.versions.node): void {
  if (nodeMajor(version) >= MINIMUM_NODE_MAJOR) return;
  console.error(
    `Quorum needs Node ${MINIMUM_NODE_MAJOR} or newer; this is Node ${version}. Run it through npm (npm start, npm run worker, ...), ` +
      `which uses the Node ${MINIMUM_NODE_MAJOR} binary that npm install puts in node_modules/.bin.`,
  );
  process.exit(1);
}

requireSupportedNode();
