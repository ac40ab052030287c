// Copies the API contract (proto/npc/v1/npc.proto of the repository) into the package, so
// an installed or packed client carries the proto it was built against.
const fs = require("fs");
const path = require("path");

const source = path.resolve(__dirname, "..", "..", "..", "npc", "v1", "npc.proto");
const target = path.resolve(__dirname, "..", "proto", "npc", "v1", "npc.proto");
if (fs.existsSync(source)) {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(source, target);
} else if (!fs.existsSync(target)) {
  console.error(`copy-proto: neither ${source} nor ${target} exists`);
  process.exit(1);
}
