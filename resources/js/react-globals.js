// The classic editor's bundle looks for React under the names its build used (window.react,
// window['react-dom']); the UMD builds define window.React and window.ReactDOM. Loaded by the
// classic edition's study participant page (studio/services/studies/web.py) after React.
window.react = window.React;
window['react-dom'] = window.ReactDOM;
