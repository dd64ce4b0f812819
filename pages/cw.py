import streamlit as st

st.title("cw")
