/*
 * Pen: on the green flag the Pen sprite clears, sets a red pen of size 4 + 1, puts it down,
 * draws a 50-step square back to (0, 0) facing 90, stamps, lifts the pen and clears again,
 * then sets done to 1. Checked: where it ends, the pen state the extension keeps on the
 * sprite, and that the project loaded the extension.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const run = async () => {
    U.greenFlag(vm);
    const ok = await U.waitUntil(() => Number(U.getVariableValue(vm, 'done')) === 1, 3000);
    U.check(ok, 'the program did not finish');
  };
  return U.runTests(vm, [
    { name: 'the pen square ends where it started', run: async () => {
      await run();
      const s = U.getSpriteState(vm, 'Pen');
      const home = U.approx(s.x, 0, 0.01) && U.approx(s.y, 0, 0.01) && U.approx(s.direction, 90, 0.01);
      U.check(home, `ends at (${s.x}, ${s.y}) facing ${s.direction}`);
    }},
    { name: 'pen state after the program', run: async () => {
      await run();
      const pen = U.requireSprite(vm, 'Pen').getCustomState('Scratch.pen');
      U.check(pen, 'the sprite has no pen state');
      U.check(pen.penDown === false, 'the pen is still down');
      U.check(pen.penAttributes.diameter === 5, `pen size ${pen.penAttributes.diameter}`);
      const [r, g, b] = pen.penAttributes.color4f;
      U.check(r > 0.99 && g < 0.01 && b < 0.01, `pen colour ${r}, ${g}, ${b}`);
    }},
    { name: 'the pen extension is loaded', run: async () => {
      U.check(vm.extensionManager.isExtensionLoaded('pen'), 'pen is not loaded');
    }},
  ], { cleanup });
};
