// debug_score_reset: the green flag must reset score to 0; each click on the Coin adds 1.
const EU = EvaluationUtils;
const { check, approx } = EU;

const score = (vm) => Number(EU.getVariableValue(vm, 'score'));

async function flag(vm) {
  EU.greenFlag(vm);
  await EU.sleep(200);
  await EU.waitForIdle(vm, 2000);
}

async function clickCoin(vm, times) {
  for (let i = 0; i < times; i++) {
    await EU.clickSprite(vm, 'Coin');
    await EU.sleep(200);
  }
  await EU.waitForIdle(vm, 2000);
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the green flag sets score to 0',
    run: async () => {
      EU.setVariableValue(vm, 'score', 42);
      await flag(vm);
      check(score(vm) === 0, `after the green flag score is ${score(vm)}, expected 0`);
    },
  },
  {
    name: 'the green flag shows the Coin at x: 0, y: 0',
    run: async () => {
      const coin = EU.requireSprite(vm, 'Coin');
      coin.setXY(150, -100);
      coin.setVisible(false);
      await flag(vm);
      const s = EU.getSpriteState(vm, 'Coin');
      check(s.visible && approx(s.x, 0) && approx(s.y, 0), `after the green flag: ${JSON.stringify(s)}`);
    },
  },
  {
    name: 'green flag then 3 clicks on the Coin gives score 3',
    run: async () => {
      EU.setVariableValue(vm, 'score', 11);
      await flag(vm);
      await clickCoin(vm, 3);
      check(score(vm) === 3, `score is ${score(vm)}, expected 3`);
    },
  },
  {
    name: 'a new game starts again from 0',
    run: async () => {
      await flag(vm);
      await clickCoin(vm, 2);
      await flag(vm);
      check(score(vm) === 0, `after the second green flag score is ${score(vm)}, expected 0`);
      await clickCoin(vm, 1);
      check(score(vm) === 1, `one click in the new game gives score ${score(vm)}, expected 1`);
    },
  },
  {
    name: 'one click on the Coin adds exactly 1',
    run: async () => {
      await flag(vm);
      EU.setVariableValue(vm, 'score', 5);
      await clickCoin(vm, 1);
      check(score(vm) === 6, `score went from 5 to ${score(vm)}, expected 6`);
    },
  },
], { cleanup });
