// Validates one manifest of `lanebench-cli fleet k8s` (JSON) against the Kubernetes API schema of
// its kind, as generated from the Kubernetes OpenAPI spec by the kubernetes-models package.
// Prints "valid", or "invalid: REASONS" and exits 1.
const fs = require("fs");
const kinds = {
  Job: () => require("kubernetes-models/batch/v1").Job,
  ConfigMap: () => require("kubernetes-models/v1").ConfigMap,
  PersistentVolumeClaim: () => require("kubernetes-models/v1").PersistentVolumeClaim,
};
const manifest = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
if (!(manifest.kind in kinds)) {
  console.log("invalid: no schema for kind " + manifest.kind);
  process.exit(1);
}
try {
  const Model = kinds[manifest.kind]();
  new Model(manifest).validate();
  console.log("valid");
} catch (e) {
  console.log("invalid: " + e.message);
  process.exit(1);
}
