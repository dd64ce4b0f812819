import streamlit as st

st.title("pcvm")
