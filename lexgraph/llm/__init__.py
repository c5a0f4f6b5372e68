"""The language model: an OpenAI-compatible client (`client`) and schema-checked JSON replies with repair prompts
(`guardrails`). Below retrieve (HyDE), answer and eval, which all ask a model; it imports no other lexgraph
package, so asking a model never pulls in the store or the index."""
