// The vendored conformance files must stay byte-identical to upstream
// (test/fixtures/aep/README.md names the commit).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { aepFixturePath } from '../support/fixtures';

const PINNED: Record<string, string> = {
  'golden/golden.jsonl': '6042952b4611275c4714df41e5d01fddeb922ad9a4efe06ae7c2d7f24b00d3bb',
  'capture-gating/cases.json': '122264117a1faa88000d4f2a5ca8ea1e7d2be1dd6d52c406e157bbf833d19979',
  'invalid/cases.json': '3d8270ad978a42ab663eee541dbc6ea127c975bab2c4ceca1160028f38b5e68c',
  'mappings/claude-code.json': '8077f55585b55323658c0e1515ebd353d4d5f60b7e5e6a0f574506da595ae3cc',
  'mappings/hermes.json': 'eea0d3efa593526278d150af0bc6edf440f14f77b90e11e3ce72c1e94ae3d0d7',
};

for (const [file, sha256] of Object.entries(PINNED)) {
  test(`${file} is byte-identical to upstream`, () => {
    const actual = createHash('sha256').update(fs.readFileSync(aepFixturePath(file))).digest('hex');
    assert.equal(actual, sha256);
  });
}
