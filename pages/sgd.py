import streamlit as st

st.title("sgd")
