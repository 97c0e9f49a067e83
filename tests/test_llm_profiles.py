"""Provider profiles (analysis/llm/providers.py), the language check and the repairs count."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from commitdigest.analysis.llm.chat import ChatRequest, StructuredMode
from commitdigest.analysis.llm.language import WrongLanguage, check_language
from commitdigest.analysis.llm.providers import Shape, adapt, build_body, detect, profile_for
from commitdigest.analysis.llm.schema import FullOutput, count_repairs


@pytest.mark.parametrize(
    ("url", "provider"),
    [
        ("https://api.openai.com/v1", "openai"),
        ("https://my-res.openai.azure.com/openai/deployments/gpt4o", "azure"),
        ("https://api.deepseek.com", "deepseek"),
        ("https://dashscope.aliyuncs.com/compatible-mode/v1", "dashscope"),
        ("https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "dashscope"),
        ("https://openrouter.ai/api/v1", "openrouter"),
        ("http://localhost:11434/v1", "ollama"),
        ("http://gpu-box:30000/v1", "sglang"),
        ("http://vllm.internal:8000/v1", "vllm"),
        ("http://127.0.0.1:8000/v1", "generic"),
    ],
)
def test_the_provider_is_read_from_the_url(url: str, provider: str) -> None:
    assert detect(url, "m") == provider
    assert profile_for("auto", "m", url).provider == provider


def test_each_profile_shapes_its_requests() -> None:
    o3 = profile_for("openai", "o3-mini")
    assert (o3.token_param, o3.temperature, o3.reasoning) == ("max_completion_tokens", False, True)
    gpt4o = profile_for("openai", "gpt-4o-mini")
    assert (gpt4o.token_param, gpt4o.temperature, gpt4o.reasoning) == (
        "max_completion_tokens",
        True,
        False,
    )
    assert profile_for("azure", "gpt-4o").token_param == "max_tokens"
    assert profile_for("deepseek", "deepseek-chat").mode is StructuredMode.JSON_OBJECT
    reasoner = profile_for("deepseek", "deepseek-reasoner")
    assert reasoner.reasoning and not reasoner.temperature
    qwen = profile_for("dashscope", "qwen3-32b")
    assert qwen.mode is StructuredMode.JSON_OBJECT and qwen.extra == {"enable_thinking": False}
    assert profile_for("dashscope", "qwen-max").extra == {}
    hybrid = profile_for("vllm", "Qwen/Qwen3-32B")
    assert hybrid.extra == {"chat_template_kwargs": {"enable_thinking": False}}
    assert profile_for("vllm", "Qwen/Qwen3-30B-A3B-Instruct-2507").extra == {}
    assert profile_for("generic", "o4-mini").token_param == "max_completion_tokens"
    assert profile_for("generic", "gpt-oss-20b").temperature  # served by vLLM, not OpenAI
    assert profile_for("openrouter", "openai/o3").temperature is False


def test_a_request_is_built_from_the_shape() -> None:
    shape = Shape.of(profile_for("dashscope", "qwen3-8b"))
    request = ChatRequest(
        model="qwen3-8b",
        messages=[{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        max_tokens=100,
        temperature=0.2,
        json_schema={"type": "object"},
        extra_body={"top_k": 20},
    )
    body, mode = build_body(request, shape)
    assert mode is StructuredMode.JSON_OBJECT
    assert body["response_format"] == {"type": "json_object"}
    assert "JSON" in body["messages"][0]["content"]  # DeepSeek/DashScope need the word
    assert body["enable_thinking"] is False and body["top_k"] == 20 and body["max_tokens"] == 100


@pytest.mark.parametrize(
    ("message", "param", "change"),
    [
        (
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            "max_tokens",
            "max_completion_tokens instead of max_tokens",
        ),
        (
            "Unsupported value: 'temperature' does not support 0.2 with this model.",
            "temperature",
            "no temperature",
        ),
        ("This response_format type is unavailable now", None, "response_format json_object"),
        (
            "parameter.enable_thinking must be set to false for non-streaming calls",
            None,
            "enable_thinking: false",
        ),
        (
            "Unrecognized request argument supplied: chat_template_kwargs",
            None,
            "without chat_template_kwargs",
        ),
        ("Unknown parameter: 'chat_template_kwargs'.", None, "without chat_template_kwargs"),
        ("The model `nope` does not exist", None, None),
        ("content rejected by the moderation filter", None, None),
    ],
)
def test_what_a_refusal_teaches(message: str, param: str | None, change: str | None) -> None:
    shape = Shape()
    assert adapt(shape, 400, message, param=param, extra_keys=["chat_template_kwargs"]) == change
    assert shape.learnt == ([change] if change else [])
    if change:  # learnt once: the same refusal teaches nothing more
        again = adapt(shape, 400, message, param=param, extra_keys=["chat_template_kwargs"])
        assert again != change


def test_modes_go_down_one_at_a_time_to_the_prompt() -> None:
    shape = Shape()
    said = "response_format json_schema is not supported"
    assert adapt(shape, 400, said) == "response_format json_object"
    assert adapt(shape, 400, said) == "no response_format (the schema goes in the prompt)"
    assert adapt(shape, 400, said) is None and shape.mode is StructuredMode.TEXT


# ---- language ----------------------------------------------------------------------------

CHINESE = (
    "修复了 `Scheduler.schedule()` 在 CUDA graph 模式下批次为空时的崩溃：空批次现在被跳过，"
    "使用 vllm/v1/worker 的默认配置的用户不再遇到进程退出。"
)
ENGLISH = (
    "Fixes a crash of the scheduler on an empty batch in CUDA graph mode: such batches are "
    "now skipped, so users running the default configuration no longer see the process exit. "
    "The change only adds a bounds check."
)


def test_free_text_must_be_in_the_reports_language() -> None:
    check_language([CHINESE], "zh")
    check_language([ENGLISH], "en")
    with pytest.raises(WrongLanguage, match="简体中文"):
        check_language([ENGLISH, ENGLISH], "zh")
    with pytest.raises(WrongLanguage, match="English"):
        check_language([CHINESE * 3], "en")


def test_a_few_words_are_not_judged() -> None:
    check_language(["Bug fixes", "Fix one"], "zh")  # too little to tell
    check_language(["`src/a.py`: `foo_bar()`, CUDA, NPU"], "zh")  # names only


# ---- repairs -------------------------------------------------------------------------------


def test_keys_at_every_level_are_normalised_and_the_repairs_counted() -> None:
    raw = {
        "analysis": {
            "Change-Type": "Bug修复",
            "Importance": "🔴 高",
            "Summary": ["one", "two"],
            "Impact": "one component",
            "Insights": [{"Dimension": "架构", "Text": "t"}, "plain"],
            "Risks": [{"Risk": "r", "Impact": "e", "Mitigation": "m"}],
            "recommendations": [{"what": "pin it"}],
        }
    }
    with pytest.raises(ValidationError):  # "plain" is no insight: it says what is wrong
        FullOutput.model_validate(raw)
    raw["analysis"]["Insights"] = [{"Dimension": "架构", "Text": "t"}]
    output = FullOutput.model_validate(raw)
    assert output.importance.value == "high" and output.change_type.value == "bugfix"
    assert output.insights[0].dimension.value == "architecture"
    assert (output.risks[0].risk, output.risks[0].effect) == ("r", "e")
    assert output.summary == "one two" and output.recommendations == ["pin it"]
    repairs = count_repairs(raw, output)
    assert repairs == {"wrapper": 1, "keys": 11, "values": 3, "shapes": 3}


def test_an_answer_as_asked_needs_no_repair() -> None:
    raw = {
        "change_type": "bugfix",
        "change_type_reason": "",
        "importance": "low",
        "summary": "s",
        "impact": [],
        "insights": [{"dimension": "security", "text": "t"}],
        "risks": [],
        "recommendations": [],
    }
    assert count_repairs(raw, FullOutput.model_validate(raw)) == {}
