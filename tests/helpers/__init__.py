"""What several test modules share, by concept: the app driven through streamlit.testing (apps, many_page), LaTeX
documents compiled with pdflatex (latex), a leaderboard's synthetic table (boards), a PDF's words (figures), a real
Chromium and a Streamlit server (browser), archive bombs (bombs). Test modules import from here, never from each
other."""
