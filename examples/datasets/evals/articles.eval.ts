// One case per Markdown file of a glob, in code-point order of the paths. Each article's title is the
// question and its `expect:` line what the answer must contain; the id comes from the file's path.
import { dataset, evalSuite, scorers } from 'digline'
import { answer } from '../src/help-desk.js'

evalSuite({
  name: 'articles',
  cases: await dataset('articles/*.md', {
    map: (row) => {
      const lines = String(row.text).split('\n')
      const title = lines[0]!.replace(/^#\s*/, '')
      const expected = lines
        .find((l) => l.startsWith('expect:'))
        ?.slice('expect:'.length)
        .trim()
      return { input: title, expected, tags: ['articles'], metadata: { path: row.path as string } }
    },
  }),
  target: (question: string) => answer(question),
  scorers: [scorers.includes({ caseInsensitive: true })],
})
