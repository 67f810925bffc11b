/*
 * Keyboard: "when right arrow key pressed" moves the Walker 10 steps; its flag script loops
 * forever and raises it 5 steps per frame while space is held (0.3 s here). Keys are posted to the VM as
 * the published benchmark does: vm.postIOData('keyboard', {key, isDown}).
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const key = (k, isDown) => vm.postIOData('keyboard', { key: k, isDown });
  const press = async (k, holdMs) => { key(k, true); await U.sleep(holdMs); key(k, false); await U.sleep(100); };
  const pos = () => U.getPosition(vm, 'Walker');
  const start = async () => { U.greenFlag(vm); await U.sleep(100); };
  return U.runTests(vm, [
    { name: 'each right arrow press moves 10 steps', run: async () => {
      await start();
      await press('ArrowRight', 60);
      await press('ArrowRight', 60);
      await U.waitUntil(() => pos().x >= 20, 600);
      await U.sleep(100);
      U.check(pos().x === 20 && pos().y === 0, `at (${pos().x}, ${pos().y})`);
    }},
    { name: 'holding space raises the sprite', run: async () => {
      await start();
      await press(' ', 300);
      const y = pos().y;
      await U.sleep(150);
      // 9 frames of 5 steps at 30 frames per second; a busy machine draws fewer
      U.check(y >= 10 && y <= 80, `raised to y ${y} in 0.3 s`);
      U.check(pos().y === y, `still rising after the key went up (${y} -> ${pos().y})`);
    }},
    { name: 'other keys do nothing', run: async () => {
      await start();
      await press('a', 60);
      await press('ArrowDown', 60);
      U.check(pos().x === 0 && pos().y === 0, `at (${pos().x}, ${pos().y})`);
    }},
  ], { cleanup });
};
