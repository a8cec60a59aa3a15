// What `require('digline/plugin')` loads: a refusal, never the plugin. A vitest.config.ts in a package
// that is not "type": "module" (npm init -y writes "type": "commonjs") is bundled by Vite as CommonJS,
// which loads its imports with require(); digline is ESM only, and without this entry Vite's own
// message ("This package is ESM only…") would not say what to change (ADR 0191). It imports nothing,
// so it loads wherever require() runs; the class it stands for is CommonJsConfigError in
// plugin/errors.ts, recognised across the boundary by its brand and name.
const config: string | undefined = module.parent?.filename
const shown = config ?? 'your vitest.config.ts'
const renamed = config === undefined ? 'vitest.config.mts' : config.replace(/\.(c|m)?(ts|js)$/, (_all, _kind: string, lang: string) => `.m${lang}`)

const refusal = Object.assign(
  new Error(
    `digline/plugin was loaded with require() from ${shown}: Vite loads a config as CommonJS when its package.json is not "type": "module", and digline is ESM only\n  next: rename ${shown} to ${renamed} (Vite then loads it as ESM), or set "type": "module" in package.json`,
  ),
  { name: 'CommonJsConfigError', exitCode: 64, next: `rename ${shown} to ${renamed}, or set "type": "module" in package.json`, path: [], digline: true },
)
throw refusal
