"""The papers of the offline arxiv.org, one of them real and famous, with values frozen here."""

from __future__ import annotations

from typing import Any, Final

# --- arxiv.org -----------------------------------------------------------------------------------

PAPERS: Final[dict[str, dict[str, Any]]] = {
    "2401.01234": {
        "title": "Sparse Attention Routing for Long-Context Language Models",
        "authors": ["Hana Kobayashi", "Daniel Ortega", "Mei Chen"],
        "submitted": "2024-01-03",
        "category": "cs.CL",
        "abstract": (
            "We route each query token to a small, learned subset of key blocks, cutting the cost "
            "of attention over 128k-token contexts by a factor of six while keeping perplexity "
            "within 0.4 points of dense attention."
        ),
    },
    "2403.05678": {
        "title": "Grounding GUI Agents with Accessibility Trees",
        "authors": ["Lukas Berger", "Amara Nwosu"],
        "submitted": "2024-03-11",
        "category": "cs.AI",
        "abstract": (
            "Desktop agents that read the accessibility tree instead of raw pixels click the right "
            "element 31% more often on a benchmark of 120 office tasks."
        ),
    },
    "2405.09876": {
        "title": "Self-Supervised Depth Estimation from Rolling-Shutter Video",
        "authors": ["Ines Duarte", "Oskar Nilsson", "Farid Haddad"],
        "submitted": "2024-05-20",
        "category": "cs.CV",
        "abstract": (
            "Modelling the rolling shutter explicitly removes the depth artefacts that fast camera "
            "motion causes in self-supervised monocular depth networks."
        ),
    },
    "2407.04321": {
        "title": "A Benchmark for Multi-Application Desktop Tasks",
        "authors": ["Sofia Marin", "Kwame Mensah", "Yuki Tanaka", "Peter Lund"],
        "submitted": "2024-07-08",
        "category": "cs.HC",
        "abstract": (
            "We collect 25 tasks that each span two to four desktop applications and show that "
            "planning across applications, not single clicks, is where current agents fail."
        ),
    },
    "2409.11111": {
        "title": "Low-Rank Adapters Forget Less",
        "authors": ["Rahul Iyer", "Clara Weiss"],
        "submitted": "2024-09-02",
        "category": "cs.LG",
        "abstract": (
            "Fine-tuning with low-rank adapters preserves more of a model's earlier skills than full "
            "fine-tuning at equal target accuracy, across nine continual-learning sequences."
        ),
    },
    # A real paper; the abstract is a summary written for this site, not the original text.
    "1706.03762": {
        "title": "Attention Is All You Need",
        "authors": [
            "Ashish Vaswani",
            "Noam Shazeer",
            "Niki Parmar",
            "Jakob Uszkoreit",
            "Llion Jones",
            "Aidan N. Gomez",
            "Lukasz Kaiser",
            "Illia Polosukhin",
        ],
        "submitted": "2017-06-12",
        "category": "cs.CL",
        "abstract": (
            "This paper presents the Transformer, an encoder-decoder network with no recurrence "
            "and no convolution that is instead based solely on attention mechanisms. Because "
            "its layers run in parallel it trains far faster than earlier translation systems, "
            "and it scores 28.4 BLEU on the WMT 2014 English-to-German task, above every model "
            "reported before it."
        ),
    },
    # Three papers a search for "multimodal agent" finds; arXiv lists them newest first.
    "2410.02345": {
        "title": "A Multimodal Agent for Everyday Desktop Automation",
        "authors": ["Marta Kowalczyk", "Jin-woo Park", "Tobias Brandt"],
        "submitted": "2024-10-03",
        "category": "cs.AI",
        "abstract": (
            "An agent that reads screenshots together with window titles finishes 64% of 200 "
            "routine office chores, such as filing receipts and renaming photos."
        ),
    },
    "2408.07777": {
        "title": "Multimodal Agent Benchmarks Are Far from Saturated",
        "authors": ["Olivia Grant", "Samuel Adeyemi"],
        "submitted": "2024-08-14",
        "category": "cs.AI",
        "abstract": (
            "Re-scoring eleven published agents without partial credit shows that the best of "
            "them completes fewer than half of the tasks it was reported to solve."
        ),
    },
    "2402.03333": {
        "title": "Planning over Screenshots with a Multimodal Agent",
        "authors": ["Ravi Menon", "Elena Sokolova", "Ahmed Farouk"],
        "submitted": "2024-02-06",
        "category": "cs.LG",
        "abstract": (
            "Having the model sketch a short plan from the current screenshot before every "
            "action halves the number of steps it wastes on dead ends."
        ),
    },
}
