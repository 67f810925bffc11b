// create_cat_walk: on the green flag the Cat goes to (-100, 0) and walks right in 10 steps of 15
// with a 0.1 s wait after each, ending at (50, 0).
const EU = EvaluationUtils;
const { check, approx } = EU;

/** Put the Cat somewhere else, press the green flag, record every position until idle. */
async function runWalk(vm, from = { x: 200, y: 100 }) {
  const cat = EU.requireSprite(vm, 'Cat');
  cat.setXY(from.x, from.y);
  const path = [];
  const onMove = (t) => path.push({ x: t.x, y: t.y });
  cat.on('TARGET_MOVED', onMove);
  const started = Date.now();
  try {
    EU.greenFlag(vm);
    await EU.sleep(100);
    await EU.waitForIdle(vm, 4000);
  } finally {
    cat.removeListener('TARGET_MOVED', onMove);
  }
  return { cat, path, ms: Date.now() - started };
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the Cat ends at x: 50, y: 0',
    run: async () => {
      const { cat } = await runWalk(vm);
      check(approx(cat.x, 50) && approx(cat.y, 0), `the Cat ended at (${cat.x}, ${cat.y}), expected (50, 0)`);
    },
  },
  {
    name: 'the Cat first goes to x: -100, y: 0',
    run: async () => {
      const { path } = await runWalk(vm, { x: -30, y: -120 });
      check(path.some((p) => approx(p.x, -100) && approx(p.y, 0)), `the Cat never stood at (-100, 0): ${JSON.stringify(path.slice(0, 4))}`);
    },
  },
  {
    name: 'the Cat walks in small steps along y: 0',
    run: async () => {
      const { path } = await runWalk(vm);
      const walk = path.filter((p) => p.x > -100.5 && p.x < 50.5 && approx(p.y, 0));
      const xs = [...new Set(walk.map((p) => Math.round(p.x)))];
      check(xs.length >= 8, `expected at least 8 positions between x -100 and 50, saw ${xs.length ? xs.join(', ') : 'none (the Cat never walked along y: 0)'}`);
      for (let i = 1; i < walk.length; i++) {
        check(Math.abs(walk[i].x - walk[i - 1].x) <= 20, `a jump from x ${walk[i - 1].x} to ${walk[i].x}`);
      }
      return { xs };
    },
  },
  {
    name: 'the walk takes about one second (it waits between steps)',
    run: async () => {
      const { ms, cat } = await runWalk(vm);
      check(approx(cat.x, 50), `the Cat ended at x ${cat.x}`);
      check(ms >= 800 && ms <= 3500, `the walk took ${ms} ms, expected about 1000 ms`);
      return { ms };
    },
  },
], { cleanup });
