"""Streamlit building blocks shared by the pages (the engine, sigcore, never imports these)."""
