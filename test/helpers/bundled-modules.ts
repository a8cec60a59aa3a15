// What a loaded file of the shipped bundle (dist/bundle/, ADR 0550) holds: rolldown marks each module
// it joins into a file with a `// dist/…/module.js` line, so a file URL under dist/bundle/ stands for
// the tsc modules it holds, named by their place in dist/ (the URLs the module build would load).
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const IN_BUNDLE = /^(file:\/\/.*\/)dist\/bundle\/.*\.js$/
const MARK = /^\/\/ (dist\/(?:src|plugin)\/\S+\.js)$/gm

/** Each URL as it is, but a file of dist/bundle/ replaced by the modules it holds. */
export function modulesOf(urls: string[]): string[] {
  return urls.flatMap((url) => {
    const root = IN_BUNDLE.exec(url)?.[1]
    if (root === undefined) return [url]
    const held = [...readFileSync(fileURLToPath(url), 'utf8').matchAll(MARK)].map((m) => pathToFileURL(fileURLToPath(root) + m[1]!).href)
    return held.length > 0 ? held : [url]
  })
}
