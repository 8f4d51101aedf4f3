// When system notifications are offered with one click, or set up by themselves (issue 42).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mayOpenFor, setupStep, type SetupFacts } from '../../src/shared/osNoticeSetup';

const fresh: SetupFacts = { mode: 'whenUnfocused', viewReady: false, permission: undefined, grantedInProfile: false, refusedInProfile: false, doneInWindow: false, declined: false };

describe('setupStep', () => {
  test('a fresh profile and window: the one click is offered', () => {
    assert.equal(setupStep(fresh), 'offer');
    assert.equal(setupStep({ ...fresh, mode: 'always' }), 'offer');
  });

  test('turned off in the settings: never offered, never opened, whatever else holds', () => {
    for (const viewReady of [false, true]) {
      for (const grantedInProfile of [false, true]) {
        for (const permission of [undefined, 'default', 'granted'] as const) {
          assert.equal(setupStep({ ...fresh, mode: 'off', viewReady, grantedInProfile, permission }), 'none');
        }
      }
    }
  });

  test('the browser already allowed this profile: another window opens its view by itself, once', () => {
    assert.equal(setupStep({ ...fresh, grantedInProfile: true }), 'open');
    assert.equal(setupStep({ ...fresh, grantedInProfile: true, declined: true }), 'open', 'declining the offer was about the click, and there is none to make');
    assert.equal(setupStep({ ...fresh, grantedInProfile: true, doneInWindow: true }), 'none');
  });

  test('a browser that refused (or has no notifications) in another window of the profile: no new window asks again', () => {
    assert.equal(setupStep({ ...fresh, refusedInProfile: true }), 'none');
    assert.equal(setupStep({ ...fresh, refusedInProfile: true, grantedInProfile: true }), 'open', 'a grant seen since wins');
  });

  test('offered once per window, and never after Don\'t Ask Again', () => {
    assert.equal(setupStep({ ...fresh, doneInWindow: true }), 'none');
    assert.equal(setupStep({ ...fresh, declined: true }), 'none');
  });

  test('the view is there: offered only while the browser has not answered', () => {
    const ready = { ...fresh, viewReady: true };
    assert.equal(setupStep({ ...ready, permission: 'default' }), 'offer');
    assert.equal(setupStep({ ...ready, permission: 'granted' }), 'none');
    assert.equal(setupStep({ ...ready, permission: 'denied' }), 'none', 'refused: the view and the tooltip say where to change it');
    assert.equal(setupStep({ ...ready, permission: 'unsupported' }), 'none');
    assert.equal(setupStep({ ...ready, permission: 'default', doneInWindow: true }), 'none');
    assert.equal(setupStep({ ...ready, permission: 'default', declined: true }), 'none');
  });
});

describe('mayOpenFor', () => {
  test('the view opens by itself only while nobody looks at the window, unless notifications are wanted even then', () => {
    assert.equal(mayOpenFor('whenUnfocused', false), true);
    assert.equal(mayOpenFor('whenUnfocused', true), false);
    assert.equal(mayOpenFor('always', true), true);
    assert.equal(mayOpenFor('off', false), false);
  });
});
