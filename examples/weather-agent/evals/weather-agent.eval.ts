// The weather agent's trajectory and answer: which tools it called, in what order, with which
// arguments, within six tool calls; and whether its answer is right. Answers are not recorded, so
// the run document keeps tool names, counts and usage, never a tool's arguments or results. The
// tools are replayed strictly from the recordings committed under .digline/examples/tools/: a run
// executes no tool, and a call never recorded errors its case (re-record with
// DIGLINE_TOOL_REPLAY=record npx vitest run).
import { evalSuite, scorers } from 'digline'
import { z } from 'zod'
import { weatherAgent } from '../src/agent.js'

const celsius = ['lookup_city', 'read_station']
const fahrenheit = [...celsius, 'to_fahrenheit']

evalSuite({
  name: 'weather-agent',
  cases: [
    { id: 'lima', input: 'What is the weather in Lima?', expected: { answer: '19 °C', toolCalls: celsius } },
    { id: 'oslo-f', input: 'What is the weather in Oslo, in fahrenheit?', expected: { answer: '27 °F', toolCalls: fahrenheit } },
    { id: 'cairo-f', input: 'What is the weather in Cairo in Fahrenheit?', expected: { answer: '88 °F', toolCalls: fahrenheit } },
    { id: 'quito', input: 'What is the weather in Quito?', expected: { answer: '14 °C', toolCalls: celsius } },
    // The agent does not know this city: it should look it up once and say so, not guess.
    { id: 'atlantis', input: 'What is the weather in Atlantis?', expected: { answer: 'could not find', toolCalls: ['lookup_city'] } },
  ],
  target: weatherAgent,
  scorers: [
    scorers.toolCalls({ order: 'exact', args: { read_station: z.object({ station: z.string().regex(/^[A-Z]{4}$/) }) }, maxCalls: 6 }),
    { name: 'answer', score: ({ output, expected }) => String(output).includes((expected as { answer: string }).answer) },
  ],
  tolerances: { toolCallsPerCase: 0.2 },
  toolReplay: 'strict',
})
