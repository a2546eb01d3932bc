"""The web: thin views, the invitation's pages, error answers, who a request comes from and its
rate limits."""
