/*
 * Clones: on the green flag the hidden Spawner makes five clones of itself, 80 steps apart
 * from x -200; each clone shows itself, counts itself in made, waits until clear is 1 and
 * deletes itself.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'five clones are created', run: async () => {
      U.greenFlag(vm);
      await U.waitUntil(() => U.countClones(vm, 'Spawner') >= 5, 600);
      await U.sleep(200);
      const count = U.countClones(vm, 'Spawner');
      const made = Number(U.getVariableValue(vm, 'made'));
      U.check(count === 5 && made === 5, `${count} clones, made ${made}`);
    }},
    { name: 'clones stand 80 steps apart', reset: false, run: async () => {
      const xs = U.getClones(vm, 'Spawner').map((c) => c.x).sort((a, b) => a - b);
      U.check(xs.join(',') === '-200,-120,-40,40,120', `clones at x ${xs.join(', ')}`);
      U.check(U.getClones(vm, 'Spawner').every((c) => c.visible), 'a clone is hidden');
    }},
    { name: 'clones delete themselves', reset: false, run: async () => {
      U.setVariableValue(vm, 'clear', 1);
      const gone = await U.waitUntil(() => U.countClones(vm, 'Spawner') === 0, 600);
      U.check(gone, `${U.countClones(vm, 'Spawner')} clones left`);
    }},
  ], { cleanup });
};
