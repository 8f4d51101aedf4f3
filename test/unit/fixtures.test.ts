// The vendored conformance files must stay byte-identical to upstream
// (test/fixtures/aep/README.md names the commit).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { aepFixturePath } from '../support/fixtures';

const PINNED: Record<string, string> = {
  'golden/golden.jsonl': '6042952b4611275c4714df41e5d01fddeb922ad9a4efe06ae7c2d7f24b00d3bb',
  'capture-gating/cases.json': '122264117a1faa88000d4f2a5ca8ea1e7d2be1dd6d52c406e157bbf833d19979',
  'invalid/cases.json': '3d8270ad978a42ab663eee541dbc6ea127c975bab2c4ceca1160028f38b5e68c',
  'mappings/claude-code.json': '8077f55585b55323658c0e1515ebd353d4d5f60b7e5e6a0f574506da595ae3cc',
  'mappings/hermes.json': 'eea0d3efa593526278d150af0bc6edf440f14f77b90e11e3ce72c1e94ae3d0d7',
  'attr-match/cases.json': 'ac1a25a4b103a4498f71ef3cb8a02fdab6b49198161d94a7c9c4d90b9dd769a4',
  'downlevel/cases.json': 'b48e89cc04fa8629fba00bcbf43b2dda75808cafe83fec4f34338cfe563c65ea',
  'redaction/cases.json': 'f4dbfc46c1498f00a5d37c9d2fc85d091dc2d8c633dcb4359ed9543cbfbbc46f',
  'conformance/live.js': 'f872870ffedbd85ba8dc3013fa702a62f43a456823f12f3afdc8497403827c50',
  // The whole schemas/ folder is pinned, not only the types/ files the hub's
  // down-levelling reads: a partial copy would be an upstream snapshot nobody took.
  'schemas/aep-event.schema.json': '762668fdff05805606ae09b8631e8fd3631e1ad35749de30766b523bb2df2ac1',
  'schemas/registry/capture.json': 'd24ddcab3c3f5049474a0fcf2b6d27dea81db8406c5c15b7a1049a83dc9c2981',
  'schemas/registry/categories.json': 'd463e332b8ad5331b6aee14c86cc1820a880d9e613a949aeee47db5ffcfecd11',
  'schemas/registry/nack-reasons.json': '88ad3c856e1b1c49b5a6815ae711a02512f955a97eb673c27d93b518423867f8',
  'schemas/registry/severity.json': 'f97d031e280cec7e7825d792dcb1a5fc72b088a02f63d071289bbe9942e17f7c',
  'schemas/registry/types.json': 'd9405d8b3147faa45523bc8563d9cd1813baa3a89eff001d0086ee19eb492270',
  'schemas/types/agent.health.schema.json': 'e2b405a811dc02532dd5043885f23b4ace1a08d357460503aed1a7835114340b',
  'schemas/types/agent.heartbeat.schema.json': '932bf4534642b18d811f246a9de13feb431ecfa715e842d998589a62421a9f24',
  'schemas/types/agent.idle.schema.json': '931bfea5712a57b16d5e68ea333ed762eb9351901bc12ca4755b050953980cb5',
  'schemas/types/agent.presence.schema.json': '97b026ff117f1161f33a7ddf251c5694dfce0c0543a78057f8bc87005df9fa9c',
  'schemas/types/assessment.evaluation.recorded.schema.json': '0dc33f9e6495a9ee5cac09f9ab3dafea94820871be4e16fcac463bde4e2923c4',
  'schemas/types/assessment.feedback.received.schema.json': '6ee6690d420653cc6a9c9fab7ddfabae78b7beb0efb52deeaa299eff24f2ae09',
  'schemas/types/assessment.guardrail.recorded.schema.json': 'fb250ea8d745936079ffc6aba0d7f7979ee8f748d361e6ee30558a3c4ee67005',
  'schemas/types/attention.answered.schema.json': 'bf5fcde5ee15b1c6505f80461f53bd254de61ab6eff0394225c518072cf1a0b6',
  'schemas/types/attention.requested.schema.json': '8c97301250df9793210062f056055918267b24a2520bbe2d26dd97f059beda94',
  'schemas/types/attention.resolved.schema.json': 'ce4be90b72e7bcbe4b3a64f34c82e29c30cc0f8030ab13066185069ca046fa4c',
  'schemas/types/attention.routed.schema.json': '691e620da7c2461cc31b99f1f1a2a26bad2cd04752e9e7099d3405694aa4bedd',
  'schemas/types/attention.timeout.schema.json': '96314d10f25fa74d26d19e19959074f9f698ce73020e25dade93b489b4fc4eb4',
  'schemas/types/control.accepted.schema.json': 'd9383caddb4b778fd81be6c376a1161864f64992adf5a280e38fca3b69d81c8c',
  'schemas/types/control.attention.respond.schema.json': '35243843e62f1a43d9106b3b9031ca0b39e78766ceaf64e6fd635197889bda7c',
  'schemas/types/control.cancel.schema.json': '154b62b9961990684bb9ea6944894cdc1c6709cbde924573b940a93e7fb0ee1c',
  'schemas/types/control.pause.schema.json': '4e232f4c75a244204ccf27910335a12a49f6276f6b266efdead98b5ee84ca54e',
  'schemas/types/control.rejected.schema.json': '32877cf67a75489187e29449df823cf383684daa719c28a3924ee0ddbe0d32a5',
  'schemas/types/control.resume.schema.json': '9258ab7c05c685c8567667424d403f9f35077d8446ed92943b00385761698ab6',
  'schemas/types/delegation.subagent.started.schema.json': 'ef66fd7ca508c1a284bb54f6c07f3737e49f3a8cf0d466719f35726d2a48f8a4',
  'schemas/types/delegation.subagent.stopped.schema.json': '134aedfe8056f52223aaaf66520fe52c16226b7d0a671f1214d0f5a66e087c70',
  'schemas/types/error.raised.schema.json': '0fbb7bb5691f701643a131903e1df1f19b187e8085b7bbd313adadd2e51ea70f',
  'schemas/types/progress.artifact.produced.schema.json': 'eb5c21b7c2c4f2e6367dfac64fe6edaac4b99aab2288258e96f20abd1c69ecb4',
  'schemas/types/progress.status.schema.json': '1562c7c6e54474dd00408b6badcd332baf64de8f15b410024d06262f815428cf',
  'schemas/types/progress.task.completed.schema.json': '44b6740a9d92cdb288d13f2e42d76c8bc6ffabe9aa3d7d0cc11134dd71f9c46f',
  'schemas/types/progress.task.planned.schema.json': '3f70e6a4a7d1b940edae43633cfdc332665e163358e1ce64a9f3434790052ea9',
  'schemas/types/resource.citation.recorded.schema.json': 'ee1f59a63dcdf1f19786f6b5227f9a75954a5a9b446a4dd9671b0397521e1479',
  'schemas/types/resource.retrieval.requested.schema.json': '934e44cef0efea1e3a8f3d0eb9e62baf202de01edae8c0005f852fbc1dbc0098',
  'schemas/types/resource.retrieval.reranked.schema.json': '316bfed35db2a64729cd9d0a065a8404222f7a6a6adddb9476b9534a15239f17',
  'schemas/types/resource.retrieval.returned.schema.json': 'af9ea5a1a38307f6438cece527b488a48cead9261fcab2708e8757ec97ad0fcf',
  'schemas/types/run.cancelled.schema.json': '347e6e716f4eb2692ca4393e280cfc7ecd4d0fa808592ac32955ff5113acf99b',
  'schemas/types/run.failed.schema.json': '0f61e6db012cf279b7747bd836cf52802dd402e775b76ab2d0bad1a3bf4fe82e',
  'schemas/types/run.finished.schema.json': '1b9377557b96ce6cf0d361e68a6322af4c0cf26bc6b7ac2114bd27b9b9115193',
  'schemas/types/run.started.schema.json': 'a41476c4e641025ff233351a32393bf942fbbae25e942beb1c43fba4831a3129',
  'schemas/types/run.step.finished.schema.json': '1a64d9a2a051dffeceecd8ef96b5eb1a5f7d8b98a5aa22c31b7746c3708eda32',
  'schemas/types/run.step.started.schema.json': '3476ce08a72cb8d87fab9ffef2b1af02c433f5747dc5d4c33b1319cbc91fedcc',
  'schemas/types/session.compacted.schema.json': '73938e9824d73a8d5600c48e7c06d4599da5155f002a4df0942ec9f9cc8e25d2',
  'schemas/types/session.ended.schema.json': '75e27ce7aea698641461e395001645e0832101bd685d8be80d47ff4246d44a80',
  'schemas/types/session.started.schema.json': '43b61b0bce0af64908a397a77c73bac0ef39d2fcd3c7e25d780848397af85937',
  'schemas/types/state.delta.schema.json': '30292a5e11df10114200e79a6b55f379ba416c4351202f8742276a916241f859',
  'schemas/types/state.snapshot.schema.json': 'e39bf844fa20b8ac93f0bc621f2e3beaf009e013d1e1ccf085e05fd23f5d0ad6',
  'schemas/types/tool.completed.schema.json': 'bf0c9811eb335330f13b75f7a287e08e432efc6dc52c69d7a1539f8b3eb0bb76',
  'schemas/types/tool.denied.schema.json': 'ad55709c1caee93c1a4af6341b4d420670ece2320dc07eb3c19268a7e52bbda9',
  'schemas/types/tool.failed.schema.json': '3a0252d481f6ecacfff48e696765f4639bd06f1fe58a44e173a83d9fc0825bb5',
  'schemas/types/tool.requested.schema.json': 'a38ff2b51fefc59ffbc578e2cb7d287d328b48d5c819585a98e545d223106f53',
};

/** Every file under a vendored folder, as `folder/sub/file` paths. */
function filesUnder(folder: string): string[] {
  const root = aepFixturePath(folder);
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((relative) => fs.statSync(path.join(root, relative)).isFile())
    .map((relative) => [folder, ...relative.split(path.sep)].join('/'));
}

test('every vendored schema file is pinned', () => {
  const unpinned = filesUnder('schemas').filter((file) => !(file in PINNED));
  assert.deepEqual(unpinned, []);
});

for (const [file, sha256] of Object.entries(PINNED)) {
  test(`${file} is byte-identical to upstream`, () => {
    const actual = createHash('sha256').update(fs.readFileSync(aepFixturePath(file))).digest('hex');
    assert.equal(actual, sha256);
  });
}
