// `digline/models`: real models as targets and judges. The provider SDKs (`openai`, `ai`) are
// optional peer dependencies, imported at the first call; the core never imports this entry point.
import type { TargetObject } from '../suite/types.js'
import { aiSdkModel, type AiSdkLanguageModel, type AiSdkModelOptions } from './ai-sdk-chat.js'
import { chatTarget, type ChatTargetOptions } from './chat-target.js'
import { openaiModel, type OpenAIChatOptions } from './openai-chat.js'

export { openaiModel, OPENAI_BASE_URL, type OpenAIChatOptions } from './openai-chat.js'
export { aiSdkModel, type AiSdkLanguageModel, type AiSdkModelOptions } from './ai-sdk-chat.js'
export { chatTarget, type ChatTargetOptions } from './chat-target.js'
export { openaiEmbeddings, type OpenAIEmbeddingOptions } from './openai-embeddings.js'
export { aiSdkEmbeddings, type AiSdkEmbeddingModel } from './ai-sdk-embeddings.js'
export type { EmbeddingModel, EmbeddingReply } from './embedding-model.js'
export { openaiAgent, type OpenAIAgentOptions } from './openai-agent.js'
export { aiSdkAgent, aiSdkSteps, type AiSdkAgentOptions, type AiSdkStepLike, type AiSdkTool } from './ai-sdk-agent.js'
export type { AgentTool, AgentTools } from './agent-tool.js'
export { simulatedUser, DEFAULT_STOP, SIMULATED_USER_TEMPLATE, type SimulatedUserOptions } from './simulated-user.js'
export type { SimulatedUser, SimulatedUserReply, SimulatedUserTurnArgs } from '../suite/conversation.js'
export { ModelCallError } from './model-call.js'
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy.js'
export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_TIMEOUT_MS, type CallOptions, type SamplingOptions } from './model-options.js'
export type { ChatMessage, ChatModel, ChatReply, ChatRequest, JsonReplyFormat, ModelCallStats } from './chat-model.js'

/** An OpenAI-compatible chat model as the target: openaiModel(options) wrapped by chatTarget. */
export function openaiTarget<I = unknown>(options: OpenAIChatOptions & ChatTargetOptions<I>): TargetObject<I, string> {
  const { system, prompt, config, ...model } = options
  return chatTarget(openaiModel(model), { system, prompt, config })
}

/** An AI SDK language model as the target: aiSdkModel(model, options) wrapped by chatTarget. */
export function aiSdkTarget<I = unknown>(model: AiSdkLanguageModel, options: AiSdkModelOptions & ChatTargetOptions<I> = {}): TargetObject<I, string> {
  const { system, prompt, config, ...rest } = options
  return chatTarget(aiSdkModel(model, rest), { system, prompt, config })
}
