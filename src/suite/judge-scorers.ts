// Which scorers are judges (ADR 0352): those whose declared config names the model that judges, as
// every built-in judge's does (llmJudge, factuality, closedQA, the RAG judges, embedding
// similarity). A scorer of the user's own is a judge when its config names a `model` too.

/** Whether a scorer's declared config makes it a judge. */
export function isJudgeConfig(config: Readonly<Record<string, unknown>>): boolean {
  return config.model !== undefined && config.model !== null
}

/** The names of the judges among a run's scorers, in the suite's order. */
export function judgeNames(judgeConfig: { scorers: readonly { name: string; config: Readonly<Record<string, unknown>> }[] }): string[] {
  return judgeConfig.scorers.filter((s) => isJudgeConfig(s.config)).map((s) => s.name)
}
