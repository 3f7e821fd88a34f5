/**
 * Decoder-only transformer LMs from their hyper-parameters, with the parameter names, shapes and
 * registration order of Hugging Face's Llama (`LlamaForCausalLM.named_parameters()`): embedding,
 * per layer q/k/v/o, gate/up/down, the two RMSNorms; final norm; untied lm_head. Grouped-query
 * attention shrinks k/v to `kvHeads` heads.
 */
import { makeParam, type Param } from "./modelList.ts";

export interface TransformerShape {
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  vocab: number;
  dtype: string;
}

/** Llama 3 shapes (Meta's model cards / config.json; arXiv 2407.21783 Table 3). */
export const LLAMA3: Readonly<Record<"8B" | "70B" | "405B", TransformerShape>> = {
  "8B": { layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffn: 14336, vocab: 128256, dtype: "bfloat16" },
  "70B": { layers: 80, hidden: 8192, heads: 64, kvHeads: 8, ffn: 28672, vocab: 128256, dtype: "bfloat16" },
  "405B": {
    layers: 126,
    hidden: 16384,
    heads: 128,
    kvHeads: 8,
    ffn: 53248,
    vocab: 128256,
    dtype: "bfloat16",
  },
};

export function transformerParams(s: TransformerShape): Param[] {
  if (s.hidden % s.heads !== 0)
    throw new RangeError(`hidden ${s.hidden} is not a multiple of heads ${s.heads}`);
  if (s.heads % s.kvHeads !== 0)
    throw new RangeError(`heads ${s.heads} is not a multiple of kv heads ${s.kvHeads}`);
  const kv = (s.hidden / s.heads) * s.kvHeads;
  const p = (name: string, shape: number[]) => makeParam({ name, shape, dtype: s.dtype });
  const out: Param[] = [p("model.embed_tokens.weight", [s.vocab, s.hidden])];
  for (let i = 0; i < s.layers; i++) {
    const l = `model.layers.${i}`;
    out.push(
      p(`${l}.self_attn.q_proj.weight`, [s.hidden, s.hidden]),
      p(`${l}.self_attn.k_proj.weight`, [kv, s.hidden]),
      p(`${l}.self_attn.v_proj.weight`, [kv, s.hidden]),
      p(`${l}.self_attn.o_proj.weight`, [s.hidden, s.hidden]),
      p(`${l}.mlp.gate_proj.weight`, [s.ffn, s.hidden]),
      p(`${l}.mlp.up_proj.weight`, [s.ffn, s.hidden]),
      p(`${l}.mlp.down_proj.weight`, [s.hidden, s.ffn]),
      p(`${l}.input_layernorm.weight`, [s.hidden]),
      p(`${l}.post_attention_layernorm.weight`, [s.hidden]),
    );
  }
  out.push(p("model.norm.weight", [s.hidden]), p("lm_head.weight", [s.vocab, s.hidden]));
  return out;
}
