"""Entry script of the installed app: ``olearn app`` runs ``streamlit run`` on this file."""

from olearn.app.frame import main

main()
