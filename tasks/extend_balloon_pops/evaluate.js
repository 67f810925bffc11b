// extend_balloon_pops: clicks still switch the Balloon between red and blue; the new variable
// pops is 0 after the green flag, counts clicks, and the fifth click says You win!.
const EU = EvaluationUtils;
const { check } = EU;

const isWin = (text) => /^\s*you win!?\s*$/i.test(text);
const costume = (vm) => EU.getSpriteState(vm, 'Balloon').costume;

function pops(vm) {
  const value = EU.getVariableValue(vm, 'pops');
  check(value !== undefined, 'there is no variable named pops');
  return Number(value);
}

async function flag(vm) {
  EU.greenFlag(vm);
  await EU.sleep(200);
  await EU.waitForIdle(vm, 2000);
}

/** Green flag, then `times` clicks on the Balloon; returns what the Balloon said. */
async function play(vm, times) {
  await flag(vm);
  const says = EU.recordSays(vm);
  try {
    for (let i = 0; i < times; i++) {
      await EU.clickSprite(vm, 'Balloon');
      await EU.sleep(200);
    }
    await EU.sleep(200);
  } finally {
    says.stop();
  }
  return says.texts('Balloon');
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the green flag still shows the red Balloon at the centre',
    run: async () => {
      const balloon = EU.requireSprite(vm, 'Balloon');
      balloon.setXY(100, 100);
      balloon.setCostume(1);
      balloon.setVisible(false);
      await flag(vm);
      const s = EU.getSpriteState(vm, 'Balloon');
      check(s.costume === 'red' && s.visible && s.x === 0 && s.y === 0, `after the green flag: ${JSON.stringify(s)}`);
    },
  },
  {
    name: 'clicks still switch between red and blue',
    run: async () => {
      await flag(vm);
      const seen = [costume(vm)];
      for (let i = 0; i < 2; i++) {
        await EU.clickSprite(vm, 'Balloon');
        await EU.sleep(200);
        seen.push(costume(vm));
      }
      check(seen.join(',') === 'red,blue,red', `costumes were ${seen.join(', ')}, expected red, blue, red`);
    },
  },
  {
    name: 'the green flag sets pops to 0',
    run: async () => {
      pops(vm);
      EU.setVariableValue(vm, 'pops', 9);
      await flag(vm);
      check(pops(vm) === 0, `after the green flag pops is ${pops(vm)}, expected 0`);
    },
  },
  {
    name: 'each click adds 1 to pops',
    run: async () => {
      pops(vm);
      await play(vm, 3);
      check(pops(vm) === 3, `after 3 clicks pops is ${pops(vm)}, expected 3`);
    },
  },
  {
    name: 'the fifth click says You win!',
    run: async () => {
      const said = await play(vm, 5);
      check(said.some(isWin), `the Balloon said ${JSON.stringify(said)}, expected You win!`);
      check(pops(vm) === 5, `pops is ${pops(vm)}, expected 5`);
    },
  },
  {
    name: 'four clicks do not win yet',
    run: async () => {
      pops(vm);
      const said = await play(vm, 4);
      check(!said.some(isWin), 'the Balloon said You win! after only 4 clicks');
    },
  },
], { cleanup });
