// extend_rain_clones: the arrow keys still move the Cloud by 20; each space press makes one Drop
// clone at the Cloud that shows, falls 10 steps at a time 20 times and deletes itself.
const EU = EvaluationUtils;
const { check, approx } = EU;

async function ready(vm) {
  EU.greenFlag(vm);
  await EU.sleep(150);
  await EU.waitForIdle(vm, 2000);
  return EU.requireSprite(vm, 'Cloud');
}

const drops = (vm) => EU.getClones(vm, 'Drop');

module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  {
    name: 'the arrow keys still move the Cloud by 20',
    run: async () => {
      const cloud = await ready(vm);
      check(approx(cloud.x, 0) && approx(cloud.y, 150), `the Cloud starts at (${cloud.x}, ${cloud.y}), expected (0, 150)`);
      await EU.pressKey(vm, 'right arrow', 50);
      await EU.sleep(150);
      check(approx(cloud.x, 20), `after the right arrow the Cloud is at x ${cloud.x}, expected 20`);
      await EU.pressKey(vm, 'left arrow', 50);
      await EU.sleep(150);
      await EU.pressKey(vm, 'left arrow', 50);
      await EU.sleep(150);
      check(approx(cloud.x, -20), `after two left arrows the Cloud is at x ${cloud.x}, expected -20`);
    },
  },
  {
    name: 'space makes one Drop clone, and the Drop itself stays hidden',
    run: async () => {
      await ready(vm);
      check(drops(vm).length === 0, 'there are Drop clones before space is pressed');
      await EU.pressKey(vm, 'space', 50);
      const made = await EU.waitUntil(() => drops(vm).length > 0, 1000);
      check(made, 'no Drop clone appeared');
      check(drops(vm).length === 1, `one press made ${drops(vm).length} clones`);
      check(!EU.requireSprite(vm, 'Drop').visible, 'the original Drop is showing');
    },
  },
  {
    name: 'the clone appears at the Cloud and shows itself',
    run: async () => {
      const cloud = await ready(vm);
      cloud.setXY(-120, 150);
      await EU.pressKey(vm, 'space', 50);
      check(await EU.waitUntil(() => drops(vm).length > 0, 1000), 'no Drop clone appeared');
      const drop = drops(vm)[0];
      check(approx(drop.x, -120), `the clone is at x ${drop.x}, the Cloud at x -120`);
      check(drop.y > 60, `the clone started at y ${drop.y}, far below the Cloud`);
      check(await EU.waitUntil(() => drop.visible, 500), 'the clone stays hidden');
    },
  },
  {
    name: 'the clone falls 10 steps at a time, 20 times',
    run: async () => {
      await ready(vm);
      const ys = [];
      let drop = null;
      const onMove = (t) => ys.push(Math.round(t.y));
      const onCreated = (t) => {
        if (!drop && !t.isOriginal && t.sprite.name === 'Drop') { drop = t; t.on('TARGET_MOVED', onMove); }
      };
      vm.runtime.on('targetWasCreated', onCreated);
      try {
        await EU.pressKey(vm, 'space', 50);
        check(await EU.waitUntil(() => drop !== null, 1000), 'no Drop clone appeared');
        await EU.waitUntil(() => !drops(vm).includes(drop), 3000);
      } finally {
        vm.runtime.removeListener('targetWasCreated', onCreated);
        if (drop) drop.removeListener('TARGET_MOVED', onMove);
      }
      const fall = ys.slice(ys.indexOf(150));
      check(fall.length >= 20, `the clone made ${fall.length} moves from the Cloud: ${ys.join(', ')}`);
      for (let i = 1; i < fall.length; i++) check(fall[i - 1] - fall[i] === 10, `a move from y ${fall[i - 1]} to ${fall[i]}`);
      check(fall[fall.length - 1] === -50, `the clone's last position was y ${fall[fall.length - 1]}, expected -50`);
    },
  },
  {
    name: 'the clone deletes itself after falling',
    run: async () => {
      await ready(vm);
      await EU.pressKey(vm, 'space', 50);
      check(await EU.waitUntil(() => drops(vm).length > 0, 1000), 'no Drop clone appeared');
      const gone = await EU.waitUntil(() => drops(vm).length === 0, 3000);
      check(gone, `${drops(vm).length} clones are still there 3 s later`);
    },
  },
  {
    name: 'three presses make three drops that fall together',
    run: async () => {
      await ready(vm);
      let most = 0;
      let made = 0;
      const onCreated = (t) => { if (!t.isOriginal && t.sprite.name === 'Drop') made += 1; };
      const watch = setInterval(() => { most = Math.max(most, drops(vm).length); }, 10);
      vm.runtime.on('targetWasCreated', onCreated);
      try {
        for (let i = 0; i < 3; i++) {
          await EU.pressKey(vm, 'space', 40);
          await EU.sleep(60);
        }
        await EU.sleep(100);
      } finally {
        clearInterval(watch);
        vm.runtime.removeListener('targetWasCreated', onCreated);
      }
      check(made === 3, `three presses made ${made} Drop clones`);
      check(most >= 2, `the drops never fell together (at most ${most} at a time)`);
      check(await EU.waitUntil(() => drops(vm).length === 0, 3000), 'the drops did not delete themselves');
    },
  },
], { cleanup });
