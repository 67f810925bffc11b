// debug_game_over: each click on the Bug takes a life; at 0 lives "game over" is broadcast, the
// Bug hides and the Banner shows and says Game Over!.
const EU = EvaluationUtils;
const { check } = EU;

const lives = (vm) => Number(EU.getVariableValue(vm, 'lives'));
const visible = (vm, name) => EU.getSpriteState(vm, name).visible;

async function flag(vm) {
  EU.greenFlag(vm);
  await EU.sleep(200);
  await EU.waitForIdle(vm, 2000);
}

/** Green flag, then click the Bug `times` times while recording broadcasts and bubbles. */
async function play(vm, times) {
  await flag(vm);
  const sent = EU.recordBroadcasts(vm);
  const says = EU.recordSays(vm);
  try {
    for (let i = 0; i < times; i++) {
      await EU.clickSprite(vm, 'Bug');
      await EU.sleep(200);
    }
    await EU.sleep(300);
    await EU.waitForIdle(vm, 2000);
  } finally {
    sent.stop();
    says.stop();
  }
  return { messages: sent.messages().map((m) => String(m).toLowerCase()), says };
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the green flag sets lives to 3, shows the Bug and hides the Banner',
    run: async () => {
      EU.setVariableValue(vm, 'lives', 0);
      EU.requireSprite(vm, 'Banner').setVisible(true);
      await flag(vm);
      check(lives(vm) === 3, `lives is ${lives(vm)}, expected 3`);
      check(visible(vm, 'Bug'), 'the Bug is hidden');
      check(!visible(vm, 'Banner'), 'the Banner is showing');
    },
  },
  {
    name: 'a click on the Bug takes one life',
    run: async () => {
      await play(vm, 1);
      check(lives(vm) === 2, `lives is ${lives(vm)} after one click, expected 2`);
    },
  },
  {
    name: 'three clicks broadcast game over',
    run: async () => {
      const { messages } = await play(vm, 3);
      check(lives(vm) === 0, `lives is ${lives(vm)} after three clicks, expected 0`);
      check(messages.includes('game over'), `broadcasts sent: ${JSON.stringify(messages)}`);
      return { messages };
    },
  },
  {
    name: 'at game over the Banner shows and says Game Over!',
    run: async () => {
      const { says } = await play(vm, 3);
      check(visible(vm, 'Banner'), 'the Banner is still hidden');
      const said = says.texts('Banner');
      check(said.some((t) => /^\s*game over!?\s*$/i.test(t)), `the Banner said ${JSON.stringify(said)}`);
    },
  },
  {
    name: 'at game over the Bug hides',
    run: async () => {
      await play(vm, 3);
      check(!visible(vm, 'Bug'), 'the Bug is still showing');
    },
  },
  {
    name: 'two clicks are not game over yet',
    run: async () => {
      const { messages } = await play(vm, 2);
      check(lives(vm) === 1, `lives is ${lives(vm)} after two clicks, expected 1`);
      check(!messages.includes('game over'), 'game over was broadcast too early');
      check(visible(vm, 'Bug') && !visible(vm, 'Banner'), 'the Bug hid or the Banner showed too early');
    },
  },
], { cleanup });
