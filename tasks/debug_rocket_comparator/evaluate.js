// debug_rocket_comparator: the Rocket starts at (0, -150), climbs 10 at a time until it is
// above y 100 (so it stops at 110) and only then says Up here!.
const EU = EvaluationUtils;
const { check, approx } = EU;

/** Green flag; record the Rocket's path and where it was when it spoke. */
async function launch(vm) {
  const rocket = EU.requireSprite(vm, 'Rocket');
  rocket.setXY(60, 20);
  const path = [];
  const spoken = [];
  const onMove = (t) => path.push({ x: t.x, y: t.y });
  const onSay = (t, type, text) => {
    if (t === rocket && String(text) !== '') spoken.push({ text: String(text), y: rocket.y });
  };
  rocket.on('TARGET_MOVED', onMove);
  vm.runtime.on('SAY', onSay);
  try {
    EU.greenFlag(vm);
    await EU.sleep(100);
    await EU.waitForIdle(vm, 4000);
    await EU.sleep(100);
  } finally {
    rocket.removeListener('TARGET_MOVED', onMove);
    vm.runtime.removeListener('SAY', onSay);
  }
  return { rocket, path, spoken };
}

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the Rocket starts at x: 0, y: -150',
    run: async () => {
      const { path } = await launch(vm);
      check(path.some((p) => approx(p.x, 0) && approx(p.y, -150)), `the Rocket never stood at (0, -150): ${JSON.stringify(path.slice(0, 3))}`);
    },
  },
  {
    name: 'the Rocket flies up to y: 110',
    run: async () => {
      const { rocket } = await launch(vm);
      check(approx(rocket.y, 110) && approx(rocket.x, 0), `the Rocket stopped at (${rocket.x}, ${rocket.y}), expected (0, 110)`);
    },
  },
  {
    name: 'the Rocket climbs 10 steps at a time',
    run: async () => {
      const { path } = await launch(vm);
      const ys = path.filter((p) => p.y >= -150.5).map((p) => Math.round(p.y));
      const climb = ys.slice(ys.indexOf(-150));
      check(climb.length >= 20, `only ${climb.length} positions on the way up: ${climb.join(', ')}`);
      for (let i = 1; i < climb.length; i++) {
        check(climb[i] - climb[i - 1] === 10, `a move from y ${climb[i - 1]} to ${climb[i]}`);
      }
    },
  },
  {
    name: 'the Rocket says Up here! only at the top',
    run: async () => {
      const { spoken } = await launch(vm);
      const up = spoken.filter((s) => /^\s*up here!?\s*$/i.test(s.text));
      check(up.length > 0, `the Rocket said ${JSON.stringify(spoken.map((s) => s.text))}`);
      check(up.every((s) => s.y > 100), `it said Up here! at y ${up.map((s) => s.y).join(', ')}`);
    },
  },
  {
    name: 'the next green flag starts the flight again',
    run: async () => {
      await launch(vm);
      const second = await launch(vm);
      check(second.path.some((p) => approx(p.y, -150)), 'the second flight did not start at y -150');
      check(approx(second.rocket.y, 110), `the second flight ended at y ${second.rocket.y}`);
    },
  },
], { cleanup });
