/*
 * Mouse: the Follower goes to the mouse pointer every frame and sets down_seen when the mouse
 * button is down; clicking the Button (76 x 36 at (100, -100), in front) adds 1 to clicks.
 * The mouse is posted to the VM in canvas coordinates, as the published benchmark does:
 * vm.postIOData('mouse', {x, y, isDown, canvasWidth: 480, canvasHeight: 360}).
 * The click elsewhere is at (-150, -150), where no sprite is (a Follower that swapped x and y
 * stands at (-100, 100) after the button click).
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const mouse = (sx, sy, isDown) => {
    const data = { x: sx + 240, y: 180 - sy, canvasWidth: 480, canvasHeight: 360 };
    if (isDown !== undefined) data.isDown = isDown;
    vm.postIOData('mouse', data);
  };
  const click = async (sx, sy) => { mouse(sx, sy, true); await U.sleep(100); mouse(sx, sy, false); await U.sleep(100); };
  const clicks = () => Number(U.getVariableValue(vm, 'clicks'));
  return U.runTests(vm, [
    { name: 'the follower follows the mouse pointer', run: async () => {
      U.greenFlag(vm);
      mouse(-180, 80);
      const near = () => { const q = U.getPosition(vm, 'Follower'); return U.approx(q.x, -180, 1) && U.approx(q.y, 80, 1); };
      await U.waitUntil(near, 600);
      const p = U.getPosition(vm, 'Follower');
      U.check(U.approx(p.x, -180, 1) && U.approx(p.y, 80, 1), `at (${p.x}, ${p.y})`);
    }},
    { name: 'clicking the button counts one click', run: async () => {
      U.greenFlag(vm);
      U.setVariableValue(vm, 'clicks', 0);
      await click(100, -100);
      await U.waitUntil(() => clicks() >= 1, 600);
      await U.sleep(100);
      U.check(clicks() === 1, `clicks ${clicks()}`);
    }},
    { name: 'a click elsewhere is not a button click', run: async () => {
      U.greenFlag(vm);
      U.setVariableValue(vm, 'clicks', 0);
      await click(-150, -150);
      await U.sleep(300); // time for a click script to run, if one started
      U.check(clicks() === 0, `clicks ${clicks()}`);
    }},
    { name: 'the program sees the mouse button', run: async () => {
      U.greenFlag(vm);
      const reset = await U.waitUntil(() => Number(U.getVariableValue(vm, 'down_seen')) === 0, 1000);
      U.check(reset, 'down_seen before any click');
      mouse(0, 150, true);
      const seen = await U.waitUntil(() => Number(U.getVariableValue(vm, 'down_seen')) === 1, 1000);
      mouse(0, 150, false);
      U.check(seen, 'the program never saw the button down');
    }},
  ], { cleanup });
};
