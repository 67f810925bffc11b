// create_arrow_keys: each arrow key press moves the Ball 10 steps in its direction.
const EU = EvaluationUtils;
const { check, approx } = EU;

/** Put the Ball at (0, 0), press the keys one after another, return where the Ball ends. */
async function pressFromCentre(vm, keys) {
  const ball = EU.requireSprite(vm, 'Ball');
  ball.setXY(0, 0);
  await EU.sleep(50);
  for (const key of keys) {
    await EU.pressKey(vm, key, 50);
    await EU.sleep(150);
  }
  await EU.sleep(100);
  return { x: ball.x, y: ball.y };
}

function moveCase(vm, key, dx, dy) {
  return {
    name: `${key} moves the Ball by (${dx}, ${dy})`,
    run: async () => {
      const p = await pressFromCentre(vm, [key]);
      check(approx(p.x, dx) && approx(p.y, dy), `after ${key} the Ball is at (${p.x}, ${p.y}), expected (${dx}, ${dy})`);
    },
  };
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  moveCase(vm, 'right arrow', 10, 0),
  moveCase(vm, 'left arrow', -10, 0),
  moveCase(vm, 'up arrow', 0, 10),
  moveCase(vm, 'down arrow', 0, -10),
  {
    name: 'presses add up: 3 x right, 2 x up, 1 x left',
    run: async () => {
      const p = await pressFromCentre(vm, ['right arrow', 'right arrow', 'right arrow', 'up arrow', 'up arrow', 'left arrow']);
      check(approx(p.x, 20) && approx(p.y, 20), `the Ball is at (${p.x}, ${p.y}), expected (20, 20)`);
    },
  },
  {
    name: 'other keys do not move the Ball',
    run: async () => {
      const p = await pressFromCentre(vm, ['space', 'a', 'Enter']);
      check(approx(p.x, 0) && approx(p.y, 0), `the Ball moved to (${p.x}, ${p.y})`);
    },
  },
], { cleanup });
