"""What several test modules share, by concept: the app driven through streamlit.testing (apps, many_page), LaTeX
documents compiled with pdflatex (latex), a leaderboard's synthetic table (boards), a figure's texts and sizes and a
PDF's words (figures), a slide's PNG read back (slides), a real Chromium and a Streamlit server (browser), archive
bombs (bombs), and the fast tier's guard (fast_tier). Test modules import from here, never from each other."""
