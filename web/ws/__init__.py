"""The websocket: the endpoint and its frame reader, the connections of each table (the hub), the pings."""
