import streamlit as st

st.title("cs_svm")
