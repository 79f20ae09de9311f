"""Entry point: `streamlit run app.py` serves the dashboard (dashboard.py) once the engine is imported.

The engine's imports (scipy.stats, pandas, plotly) take about a second; done here, at server start, the first
visitor's page does not wait for them (the Classroom's walk-through is usable sooner, see bench/classroom.py).
"""

from contextlib import asynccontextmanager

import streamlit as st


@asynccontextmanager
async def preload(_app):
    import plotly.graph_objects  # noqa: F401
    import sigcore.report.figures  # noqa: F401
    import sigcore.teaching  # noqa: F401
    yield


app = st.App("dashboard.py", lifespan=preload)
