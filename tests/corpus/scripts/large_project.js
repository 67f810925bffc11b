/*
 * A large project: 40 bitmap sprites, each with a flag script (go to its start, then 10 times
 * change x by 1 and ticks by 1) and a 90-block script that never runs. All of it must load,
 * and the flag must run every sprite's script to the end: ticks 400, each sprite 10 steps on.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'all 40 sprites and their 3000 blocks load', run: async () => {
      U.check(U.getSprites(vm).length === 40, `${U.getSprites(vm).length} sprites`);
      const blocks = vm.runtime.targets.reduce((n, t) => n + Object.keys(t.blocks._blocks).length, 0);
      U.check(blocks >= 3000, `${blocks} blocks`);
      return { blocks };
    }},
    { name: 'every sprite runs its flag script', run: async () => {
      U.setVariableValue(vm, 'ticks', 0);
      U.greenFlag(vm);
      await U.waitUntil(() => Number(U.getVariableValue(vm, 'ticks')) >= 400, 1500);
      await U.waitForIdle(vm, 1000);
      const ticks = Number(U.getVariableValue(vm, 'ticks'));
      const off = U.getSprites(vm).filter((t) => {
        const i = Number(t.sprite.name.slice('Sprite'.length));
        return t.x !== -200 + i * 10 + 10;
      }).map((t) => `${t.sprite.name} at ${t.x}`);
      U.check(ticks === 400, `ticks ${ticks}`);
      U.check(off.length === 0, off.join(', '));
    }},
  ], { cleanup });
};
