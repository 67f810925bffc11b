/*
 * Backdrops: "day" and "night" are bitmap backdrops at resolution 2 (960 x 720 images), "dawn"
 * a vector one. On the green flag the Sun logs "switching", switches to night and waits, logs
 * "after wait", goes to the next backdrop and logs its name. The stage's "when backdrop
 * switches to night" logs "night begins", waits 0.3 s and logs "night ends".
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const log = () => U.getList(vm, 'log') || [];
  return U.runTests(vm, [
    { name: 'bitmap backdrops fill the stage', run: async () => {
      const costumes = U.getStage(vm).getCostumes();
      const names = costumes.map((c) => c.name).join(',');
      U.check(names === 'day,night,dawn', `backdrops ${names}`);
      for (const c of costumes.slice(0, 2)) {
        U.check(c.dataFormat === 'png' && c.bitmapResolution === 2, `${c.name}: ${c.dataFormat} at ${c.bitmapResolution}`);
        const [w, h] = vm.renderer.getSkinSize(c.skinId).map(Math.round);
        U.check(w === 480 && h === 360, `${c.name} covers ${w} x ${h} of the stage`);
      }
    }},
    { name: "switch backdrop and wait waits for the backdrop's scripts", run: async () => {
      U.greenFlag(vm);
      U.check(await U.waitUntil(() => Number(U.getVariableValue(vm, 'done')) === 1, 3000), 'the Sun did not finish');
      await U.waitUntil(() => log().length >= 5, 1000);
      const got = log().join(' | ');
      U.check(got === 'switching | night begins | night ends | after wait | dawn', `log: ${got}`);
      U.check(U.getBackdropName(vm) === 'dawn', `backdrop ${U.getBackdropName(vm)}`);
    }},
    { name: 'when backdrop switches to night starts its script', run: async () => {
      U.greenFlag(vm);
      U.check(await U.waitUntil(() => log().includes('night ends'), 2000), `log: ${log().join(' | ')}`);
    }},
  ], { cleanup });
};
