"""The live table: frames rendered once per audience and pushed to every open page, reconnects,
catch-up, who has a table open, and "te toca" alerts."""
