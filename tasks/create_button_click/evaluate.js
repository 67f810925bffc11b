// create_button_click: green flag -> costume "up"; clicking the Button -> costume "pressed" and
// says Hello!; clicks elsewhere do nothing.
const EU = EvaluationUtils;
const { check } = EU;

const isHello = (text) => /^\s*hello!?\s*$/i.test(text);
const costume = (vm) => EU.getSpriteState(vm, 'Button').costume;

/** Show the pressed costume, press the green flag and let the Button settle. */
async function start(vm) {
  const button = EU.requireSprite(vm, 'Button');
  button.setCostume(button.getCostumeIndexByName('pressed'));
  EU.greenFlag(vm);
  await EU.sleep(200);
  await EU.waitForIdle(vm, 2000);
  return button;
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the green flag shows the up costume',
    run: async () => {
      await start(vm);
      check(costume(vm) === 'up', `the Button shows "${costume(vm)}", expected "up"`);
    },
  },
  {
    name: 'clicking the Button shows the pressed costume',
    run: async () => {
      const button = await start(vm);
      button.setCostume(button.getCostumeIndexByName('up'));
      await EU.clickSprite(vm, 'Button');
      const ok = await EU.waitUntil(() => costume(vm) === 'pressed', 1500);
      check(ok, `after a click the Button shows "${costume(vm)}", expected "pressed"`);
    },
  },
  {
    name: 'clicking the Button says Hello!',
    run: async () => {
      await start(vm);
      const says = EU.recordSays(vm);
      try {
        await EU.clickSprite(vm, 'Button');
        const ok = await says.waitFor((text, e) => e.sprite === 'Button' && isHello(text), 1500);
        check(ok, `the Button said ${JSON.stringify(says.texts())}, expected "Hello!"`);
      } finally { says.stop(); }
    },
  },
  {
    name: 'a click away from the Button does nothing',
    run: async () => {
      await start(vm);
      const says = EU.recordSays(vm);
      try {
        await EU.clickAt(vm, -200, -150);
        await EU.sleep(400);
        check(costume(vm) === 'up', `the Button shows "${costume(vm)}" after a click on the stage`);
        check(says.texts().length === 0, `something was said: ${JSON.stringify(says.texts())}`);
      } finally { says.stop(); }
    },
  },
  {
    name: 'every click says Hello! again',
    run: async () => {
      await start(vm);
      const says = EU.recordSays(vm);
      try {
        for (let i = 0; i < 3; i++) {
          await EU.clickSprite(vm, 'Button');
          await EU.sleep(250);
        }
        await EU.sleep(200);
        const hellos = says.texts('Button').filter(isHello).length;
        check(hellos >= 3, `3 clicks gave ${hellos} Hello! bubbles`);
      } finally { says.stop(); }
    },
  },
], { cleanup });
