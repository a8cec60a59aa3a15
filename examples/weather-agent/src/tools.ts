// The agent's tools: real functions over a small table of stations, offline and deterministic.

const STATIONS: Record<string, { station: string; celsius: number }> = {
  lima: { station: 'SPJC', celsius: 19 },
  oslo: { station: 'ENGM', celsius: -3 },
  cairo: { station: 'HECA', celsius: 31 },
  quito: { station: 'SEQM', celsius: 14 },
}

export const tools = {
  /** The weather station of a city; throws for a city it does not know. */
  lookup_city({ city }: { city: string }): { station: string } {
    const found = STATIONS[city.toLowerCase()]
    if (found === undefined) throw new Error(`no station for ${city}`)
    return { station: found.station }
  },
  /** The latest temperature a station read, in °C. */
  read_station({ station }: { station: string }): { celsius: number } {
    const found = Object.values(STATIONS).find((s) => s.station === station)
    if (found === undefined) throw new Error(`no station ${station}`)
    return { celsius: found.celsius }
  },
  /** °C to °F, rounded to a whole degree. */
  to_fahrenheit({ celsius }: { celsius: number }): { fahrenheit: number } {
    return { fahrenheit: Math.round((celsius * 9) / 5 + 32) }
  },
}

export type ToolName = keyof typeof tools
