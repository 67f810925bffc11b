// extend_frog_jump: the arrow keys still walk the Frog by 10; space makes it jump 100 steps up
// in steps of 10 and land where it started.
const EU = EvaluationUtils;
const { check, approx } = EU;

async function ready(vm, x = 0) {
  EU.greenFlag(vm);
  await EU.sleep(150);
  await EU.waitForIdle(vm, 2000);
  const frog = EU.requireSprite(vm, 'Frog');
  frog.setXY(x, -100);
  return frog;
}

/** Press space and record the Frog's path until the jump is over. */
async function jump(vm, frog) {
  const path = [];
  const onMove = (t) => path.push({ x: t.x, y: t.y });
  frog.on('TARGET_MOVED', onMove);
  try {
    await EU.pressKey(vm, 'space', 50);
    await EU.sleep(100);
    await EU.waitForIdle(vm, 3000);
    await EU.sleep(100);
  } finally {
    frog.removeListener('TARGET_MOVED', onMove);
  }
  return path;
}

async function walk(vm, frog, key) {
  const before = frog.x;
  await EU.pressKey(vm, key, 50);
  await EU.sleep(200);
  return frog.x - before;
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the right arrow still walks 10 steps right',
    run: async () => {
      const frog = await ready(vm);
      const dx = await walk(vm, frog, 'right arrow');
      check(approx(dx, 10) && approx(frog.y, -100), `the right arrow moved the Frog by ${dx} to y ${frog.y}`);
    },
  },
  {
    name: 'the left arrow still walks 10 steps left',
    run: async () => {
      const frog = await ready(vm);
      const dx = await walk(vm, frog, 'left arrow');
      check(approx(dx, -10) && approx(frog.y, -100), `the left arrow moved the Frog by ${dx} to y ${frog.y}`);
    },
  },
  {
    name: 'space makes the Frog jump 100 steps up',
    run: async () => {
      const frog = await ready(vm);
      const path = await jump(vm, frog);
      const top = Math.max(-100, ...path.map((p) => p.y));
      check(approx(top, 0), `the highest point was y ${top}, expected 0 (100 above -100)`);
      return { top };
    },
  },
  {
    name: 'the Frog lands where it started',
    run: async () => {
      const frog = await ready(vm, 40);
      const path = await jump(vm, frog);
      check(path.length > 0, 'the Frog did not move when space was pressed');
      check(approx(frog.x, 40) && approx(frog.y, -100), `the Frog landed at (${frog.x}, ${frog.y}), expected (40, -100)`);
      check(path.every((p) => approx(p.x, 40)), 'the Frog moved sideways during the jump');
    },
  },
  {
    name: 'the jump goes up and down 10 steps at a time',
    run: async () => {
      const frog = await ready(vm);
      const path = await jump(vm, frog);
      const ys = [-100, ...path.map((p) => Math.round(p.y))];
      check(ys.length >= 21, `only ${ys.length - 1} moves in the jump: ${ys.join(', ')}`);
      for (let i = 1; i < ys.length; i++) {
        check(Math.abs(ys[i] - ys[i - 1]) === 10, `a move from y ${ys[i - 1]} to ${ys[i]}`);
      }
    },
  },
  {
    name: 'the Frog can walk again after a jump',
    run: async () => {
      const frog = await ready(vm);
      await jump(vm, frog);
      const dx = await walk(vm, frog, 'right arrow');
      check(approx(dx, 10) && approx(frog.y, -100), `after the jump the right arrow moved the Frog by ${dx} to y ${frog.y}`);
    },
  },
], { cleanup });
