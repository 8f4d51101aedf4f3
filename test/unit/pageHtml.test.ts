// The request page's HTML with its first render (issue 40): the render is data
// in an inert element, written so that no text in it can end that element or
// change how the HTML parser reads what follows, and it parses back to the
// very value the host built.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scriptJson, webviewHtml } from '../../src/app/page/webviewHtml';
import { PAGE_INIT_ELEMENT } from '../../src/shared/webviewMessages';

const PAGE = { cspSource: 'https://webview.test', scriptUri: 'https://webview.test/webview.js', styleUri: 'https://webview.test/form.css', nonce: 'n0nce', lang: 'en', title: 'AEP request', loading: 'Loading…' };

test('scriptJson escapes every character that could end a script element or open a comment, and parses back to the same value', () => {
  const value = { prompt: 'Approve? </script><script>alert(1)</script><!-- --> & \u2028\u2029 </SCRIPT >', nested: ['<', '>', '&'] };
  const json = scriptJson(value);
  assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
  assert.deepEqual(JSON.parse(json), value);
});

test('the page holds its first render in one inert JSON element before its script, and none without one', () => {
  const init = { type: 'init', request: { prompt: '</script><script>alert(1)</script>' }, generation: 7, now: 1 };
  const html = webviewHtml({ ...PAGE, init });
  const held = new RegExp(`<script type="application/json" id="${PAGE_INIT_ELEMENT}">([^<]*)</script>\\n<script nonce="n0nce" src=`).exec(html);
  assert.ok(held, html);
  assert.deepEqual(JSON.parse(held[1] ?? ''), init);
  // The only way out of the element is its own end tag: the one script end tag after the render is the page script's.
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  assert.doesNotMatch(webviewHtml(PAGE), new RegExp(PAGE_INIT_ELEMENT));
});
